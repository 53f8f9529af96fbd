/**
 * Browser entry: hydrates the pre-rendered page and wires the chrome's small behaviours.
 * The page body is taken from the DOM, so it is never shipped twice.
 */
// Base styles first: components' own stylesheets come after and may refine them.
import './styles/base.css';
// The markdown components render on the server only; their styles still belong in the page.
import './components/markdown/markdown.css';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { Layout } from './components/Layout/Layout';
import type { HydrationData } from './manifest';
import { installChrome } from './chrome';

const container = document.getElementById('__docs');
const dataElement = document.getElementById('__DOCS_DATA__');
if (container && dataElement) {
  const data = JSON.parse(dataElement.textContent ?? '{}') as HydrationData;
  const html = container.querySelector('.markdown')?.innerHTML ?? '';
  const sidebarElement = container.querySelector('.sidebar');
  hydrateRoot(
    container,
    <StrictMode>
      <Layout data={data} html={html} sidebarHtml={sidebarElement ? sidebarElement.innerHTML : null} />
    </StrictMode>,
  );
  installChrome(data);
}
