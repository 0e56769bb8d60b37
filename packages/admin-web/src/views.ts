import { existsSync } from 'node:fs';
import { extname, join, relative, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Eta, EtaFileResolutionError } from 'eta';

/** This package's templates (layout, sign-in, error, account, users); beside the compiled code in dist/ too. */
export const ADMIN_WEB_VIEWS = fileURLToPath(new URL('./views', import.meta.url));
/** This package's stylesheet and script, served at `<prefix>/assets/`. */
export const ADMIN_WEB_PUBLIC = fileURLToPath(new URL('./public', import.meta.url));

/**
 * An Eta engine that looks a template up by name in each folder in turn: the service's own views first, then the
 * package's, so a service's page can use `layout('./layout')` and the package's pages render inside the service.
 * A name that leaves its folder (`../x`) is refused, as Eta itself does.
 */
export function layeredEta(dirs: string[]): Eta {
  const eta = new Eta({ cache: true, views: dirs[0] });
  eta.resolvePath = (template: string) => {
    const name = template.replace(/^(\.\/|\/)+/, '') + (extname(template) ? '' : '.eta');
    for (const dir of dirs) {
      const path = join(dir, name);
      const rel = relative(dir, path);
      if (rel && !rel.startsWith('..') && !isAbsolute(rel) && existsSync(path)) return path;
    }
    throw new EtaFileResolutionError(`Template '${template}' is in none of the views folders`);
  };
  return eta;
}
