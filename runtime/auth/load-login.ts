/** The login screen's chunk: one import site, so esbuild splits it out of the entry. */
export function loadLoginScreen(): Promise<typeof import('./LoginScreen/LoginScreen')> {
  return import('./LoginScreen/LoginScreen');
}
