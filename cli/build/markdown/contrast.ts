/**
 * Colours of highlighted code made readable: a theme's token colour that falls short of WCAG AA's 4.5:1
 * against the code block's background (github-dark's comments, #6A737D on #24292E, are 3.05:1) is moved
 * towards white on a dark background, towards black on a light one, just far enough.
 */

/** The channels of `#rgb` or `#rrggbb`; undefined for anything else (a colour with alpha, a name). */
function channels(color: string): [number, number, number] | undefined {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  const long = short ? undefined : /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  const parts = short ? short.slice(1).map((digit) => digit + digit) : long?.slice(1);
  return parts ? (parts.map((part) => parseInt(part, 16)) as [number, number, number]) : undefined;
}

/** WCAG 2 relative luminance of 0–255 channels. */
function luminance([red, green, blue]: [number, number, number]): number {
  const linear = (value: number): number => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
}

/** The contrast ratio of two colours (1–21); undefined unless both are `#rgb` or `#rrggbb`. */
export function contrastRatio(a: string, b: string): number | undefined {
  const [x, y] = [channels(a), channels(b)];
  if (!x || !y) return undefined;
  const [light, dark] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** WCAG AA for text. */
const RATIO = 4.5;

/** The colours made, by background then colour: asked once per token of every highlighted line, so no key is built per ask. */
const made = new Map<string, Map<string, string>>();

/** `color`, or the nearest colour towards white (on a dark `background`) or black that has 4.5:1 against it. */
export function readableOn(color: string, background: string): string {
  let onBackground = made.get(background);
  if (!onBackground) made.set(background, (onBackground = new Map()));
  let found = onBackground.get(color);
  if (found !== undefined) return found;
  found = color;
  const fg = channels(color);
  const bg = channels(background);
  if (fg && bg && contrastRatio(color, background)! < RATIO) {
    const target = luminance(bg) < 0.18 ? 255 : 0;
    for (let step = 1; step <= 20; step++) {
      const mixed = fg.map((value) => Math.round(value + ((target - value) * step) / 20));
      found = `#${mixed.map((value) => value.toString(16).padStart(2, '0')).join('')}`.toUpperCase();
      if (contrastRatio(found, background)! >= RATIO) break;
    }
  }
  onBackground.set(color, found);
  return found;
}
