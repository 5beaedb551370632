/** Code-point order, independent of the process locale (hashes and snapshots must not depend on it). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
