/** Writing to localStorage without throwing: private mode or a full quota only lose the choice for this page. */

/** Stores a value; silently does nothing when storage is unavailable. */
export function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // The choice lasts for this page only.
  }
}
