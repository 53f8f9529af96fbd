/**
 * Mermaid diagrams: `div.mermaid > div.mermaid-frame[data-mermaid]` holds the diagram source
 * (pre-rendered as text, so it is readable before this chunk arrives) in a box the size the diagram
 * will be drawn at. Each is drawn in the current colour mode and drawn again when the mode changes;
 * one drawn dark is drawn once more in light colours, which it prints in.
 */
import mermaid from 'mermaid';

/** The source of each diagram, kept once the element holds the drawing instead. */
const sources = new WeakMap<Element, string>();
let counter = 0;
let watching = false;
let workbench: HTMLElement | undefined;

/**
 * Where mermaid lays each diagram out before handing back its SVG. Left to itself it appends a
 * measuring box to the end of <body>, which makes the page taller for as long as the drawing takes:
 * the scrollbar jumps and a reader at the end of the page is, for that moment, no longer at its end.
 * A fixed box out of sight takes no room in the page.
 */
function measuringBox(): HTMLElement {
  if (workbench?.isConnected) return workbench;
  workbench = document.createElement('div');
  workbench.setAttribute('aria-hidden', 'true');
  workbench.style.cssText = 'position:fixed;top:0;left:0;width:100vw;height:0;overflow:hidden;visibility:hidden;pointer-events:none;contain:layout paint';
  document.body.append(workbench);
  return workbench;
}

type Mode = 'dark' | 'default';

function theme(): Mode {
  return document.documentElement.getAttribute('data-theme') === 'light' ? 'default' : 'dark';
}

/**
 * Light drawings of the diagrams drawn dark, for print: paper is white whatever the mode (base.css),
 * and a dark drawing printed on it is black boxes joined by lines too faint to see. Each is drawn
 * once the page is idle and put in place of the dark one while the page prints.
 */
const printCopies = new WeakMap<Element, string>();
/** While the page prints (and only then): the dark drawing of each diagram swapped for its light copy. */
const onScreen = new Map<Element, string>();

/** Mermaid draws one diagram at a time (it keeps per-render state and one global config): every drawing waits its turn here. */
let turn: Promise<unknown> = Promise.resolve();
function inTurn<T>(task: () => Promise<T>): Promise<T> {
  const next = turn.then(task, task);
  turn = next.catch(() => undefined);
  return next;
}

/** The drawing of `source` in `mode`. */
async function drawing(source: string, mode: Mode): Promise<string> {
  // Mermaid sizes each box by measuring its label in `fontFamily`; the drawing must use the very same
  // font or labels overflow their boxes. `inherit` measured in one font (the measuring element's) and
  // drew in another (the placeholder's monospace), so the font is named: the page's body font, which
  // the drawn diagram also uses (`.mermaid[data-mermaid-theme]` in markdown.css).
  const fontFamily = getComputedStyle(document.body).fontFamily;
  // The dark theme's edge labels are #ccc on #585858 (4.4:1, under WCAG AA's 4.5:1): a darker
  // label background gives 7.9:1.
  const themeVariables = mode === 'dark' ? { fontFamily, edgeLabelBackground: '#333333' } : { fontFamily };
  mermaid.initialize({ startOnLoad: false, theme: mode, securityLevel: 'strict', fontFamily, themeVariables });
  const { svg } = await mermaid.render(`mermaid-diagram-${++counter}`, source, measuringBox());
  return svg;
}

/** Puts a drawing in its frame. */
function place(element: Element, svg: string): void {
  element.innerHTML = svg;
  // The frame's box was reserved by the build (cli/build/markdown/diagrams.ts): the drawing fills it,
  // scaled to fit, instead of taking mermaid's own size, so nothing on the page moves.
  const drawn = element.querySelector('svg');
  if (drawn && element.hasAttribute('style')) {
    drawn.style.maxWidth = 'none';
    drawn.setAttribute('width', '100%');
    drawn.setAttribute('height', '100%');
  }
}

async function draw(element: Element, mode: Mode): Promise<void> {
  let source = sources.get(element);
  if (source === undefined) {
    source = element.textContent ?? '';
    sources.set(element, source);
  }
  try {
    const svg = await drawing(source, mode);
    // A page printing keeps its light copies in place until it is done; this drawing goes in after.
    if (onScreen.has(element)) onScreen.set(element, svg);
    else place(element, svg);
    element.setAttribute('data-mermaid-theme', mode);
  } catch (error) {
    // A diagram with a syntax error stays readable as its source, with the reason beside it.
    measuringBox().replaceChildren();
    element.textContent = source;
    element.setAttribute('data-mermaid-error', error instanceof Error ? error.message : String(error));
  }
}

/** Draws every diagram inside `container` (the page body) in the current colour mode. */
export async function renderDiagrams(container: Element | null): Promise<void> {
  if (!container) return;
  watchTheme();
  const mode = theme();
  const elements = [...container.querySelectorAll('[data-mermaid]')];
  // One after another, and after any drawing under way; a page has only a few diagrams.
  for (const element of elements) await inTurn(() => draw(element, mode));
  if (mode === 'dark') whenIdle(() => void preparePrint(elements));
}

/** The light copies of the diagrams of `elements` drawn dark that have none yet. */
async function preparePrint(elements: Element[]): Promise<void> {
  for (const element of elements) {
    const source = sources.get(element);
    if (source === undefined || printCopies.has(element) || !element.isConnected || element.hasAttribute('data-mermaid-error')) continue;
    await inTurn(async () => {
      try {
        printCopies.set(element, await drawing(source, 'default'));
        element.setAttribute('data-mermaid-print', '');
      } catch {
        // It did draw dark: it prints as it shows.
        measuringBox().replaceChildren();
      }
    });
  }
}

function whenIdle(task: () => void): void {
  if ('requestIdleCallback' in window) requestIdleCallback(task, { timeout: 2000 });
  else setTimeout(task, 200);
}

/** Swaps the dark drawings for their light copies while the page prints, and back after. */
function watchPrint(): void {
  addEventListener('beforeprint', () => {
    for (const element of document.querySelectorAll('[data-mermaid-theme="dark"][data-mermaid-print]')) {
      const copy = printCopies.get(element);
      if (copy === undefined) continue;
      onScreen.set(element, element.innerHTML);
      place(element, copy);
    }
  });
  addEventListener('afterprint', () => {
    for (const [element, svg] of onScreen) place(element, svg);
    onScreen.clear();
  });
}

/** Redraws the diagrams on screen whenever the colour mode changes. */
function watchTheme(): void {
  if (watching) return;
  watching = true;
  watchPrint();
  new MutationObserver(() => void renderDiagrams(document.querySelector('#main .markdown'))).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['data-theme'],
  });
}
