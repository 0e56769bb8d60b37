import type { NavItem } from '@app/admin-web';
import type { FastifyInstance } from 'fastify';

/** The console's prefix on the delivery service. */
export const CONSOLE_PREFIX = '/console';

/**
 * One section of the console (docs/console.md "Adding a page"): its entry in the top navigation (with the least
 * role that sees it) and the function that adds its routes. Sections are registered in the order given.
 */
export interface ConsoleSection {
  nav: NavItem;
  /** One line for the home page. */
  summary: string;
  routes: (app: FastifyInstance) => void;
}
