/** What a site's `site.config.ts` may import from `docs`. */
export { defineConfig } from './build/config';
export type { UserConfig, SidebarConfig, OpenApiConfig } from './build/config';
