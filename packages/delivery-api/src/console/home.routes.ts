import { render } from '@app/admin-web';
import type { FastifyInstance } from 'fastify';
import type { ConsoleSection } from './console-section.js';

/** The home page (`/console/home`): the sections the signed-in role may open, each with one line. */
export function homeRoutes(app: FastifyInstance, sections: ConsoleSection[]): void {
  app.get('/home', async (req, reply) => {
    const visible = sections.filter((s) => !s.nav.role || req.adminAllows(s.nav.role));
    return render(reply, 'home', { section: 'home', sections: visible });
  });
}
