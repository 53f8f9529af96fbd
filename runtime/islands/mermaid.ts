/**
 * Mermaid diagrams: `div.mermaid > div.mermaid-frame[data-mermaid]` holds the diagram source
 * (pre-rendered as text, so it is readable before this chunk arrives) in a box the size the diagram
 * will be drawn at. Each is drawn in the current colour mode and drawn again when the mode changes.
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

function theme(): 'dark' | 'default' {
  return document.documentElement.getAttribute('data-theme') === 'light' ? 'default' : 'dark';
}

async function draw(element: Element, mode: 'dark' | 'default'): Promise<void> {
  let source = sources.get(element);
  if (source === undefined) {
    source = element.textContent ?? '';
    sources.set(element, source);
  }
  const id = `mermaid-diagram-${++counter}`;
  try {
    const { svg } = await mermaid.render(id, source, measuringBox());
    element.innerHTML = svg;
    // The frame's box was reserved by the build (cli/build/markdown/diagrams.ts): the drawing fills it,
    // scaled to fit, instead of taking mermaid's own size, so nothing on the page moves.
    const drawn = element.querySelector('svg');
    if (drawn && element.hasAttribute('style')) {
      drawn.style.maxWidth = 'none';
      drawn.setAttribute('width', '100%');
      drawn.setAttribute('height', '100%');
    }
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
  // Mermaid sizes each box by measuring its label in `fontFamily`; the drawing must use the very same
  // font or labels overflow their boxes. `inherit` measured in one font (the measuring element's) and
  // drew in another (the placeholder's monospace), so the font is named: the page's body font, which
  // the drawn diagram also uses (`.mermaid[data-mermaid-theme]` in markdown.css).
  const fontFamily = getComputedStyle(document.body).fontFamily;
  // The dark theme's edge labels are #ccc on #585858 (4.4:1, under WCAG AA's 4.5:1): a darker
  // label background gives 7.9:1.
  const themeVariables = mode === 'dark' ? { fontFamily, edgeLabelBackground: '#333333' } : { fontFamily };
  mermaid.initialize({ startOnLoad: false, theme: mode, securityLevel: 'strict', fontFamily, themeVariables });
  // One after another: mermaid keeps per-render state, and a page has only a few diagrams.
  for (const element of container.querySelectorAll('[data-mermaid]')) await draw(element, mode);
}

/** Redraws the diagrams on screen whenever the colour mode changes. */
function watchTheme(): void {
  if (watching) return;
  watching = true;
  new MutationObserver(() => void renderDiagrams(document.querySelector('#main .markdown'))).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['data-theme'],
  });
}
