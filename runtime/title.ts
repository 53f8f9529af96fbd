/**
 * The tab's title, which two parts of the runtime decide: the router (the page shown) and the login
 * gate (whether it is shown). While the login screen is up the tab shows the site's title alone, as
 * the gated host's sign-in shell does: a signed-out reader, or anyone glancing at the tab bar, does
 * not read the title of the page behind the gate. The head script does the same before paint.
 */
let page: string | undefined;
let site = '';
let hidden = false;

function write(): void {
  document.title = hidden || page === undefined ? site : page;
}

/** The title of the page the router shows (`pageTitle`), and the site's. */
export function showPageTitle(title: string, siteTitle: string): void {
  page = title;
  site = siteTitle;
  write();
}

/** Whether the login screen hides the page; the site's title is shown meanwhile. */
export function hidePageTitle(hide: boolean, siteTitle: string): void {
  hidden = hide;
  site = siteTitle;
  write();
}
