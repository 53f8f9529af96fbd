/** An absolute http(s) address with a host (a backend's, a repository's, a navbar link's). */
export function isWebAddress(value: string): boolean {
  if (!/^https?:\/\/[^\s\\]+$/i.test(value)) return false;
  try {
    return new URL(value).host !== '';
  } catch {
    return false;
  }
}
