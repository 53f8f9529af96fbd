/** localStorage that never throws: private mode or a full quota only lose the choice for this page. */

/** The stored value, or null when absent or storage is unavailable. */
export function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Stores a value; silently does nothing when storage is unavailable. */
export function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // The choice lasts for this page only.
  }
}
