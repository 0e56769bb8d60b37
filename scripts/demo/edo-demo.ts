import { startEdoSimulator, updXsdFromEnv, type RunningEdoSimulator } from '@app/edo-simulator';
import { simulatorUpdWriter, type EdoConnectionAdmin } from '@app/recognition-api';

const isLocal = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/**
 * The e-document part of `npm start`: runs the Diadoc simulator (its own identity provider, a seeded box) and
 * points the recognition API's operator connection at it — unless a connection to a real operator is stored
 * (edo-cli set or DIADOC_* variables), which is kept. Used by scripts/start.ts and by the gateway's e2e test.
 */
export async function startEdoDemo(
  admin: EdoConnectionAdmin,
  opts: { port?: number; log?: (msg: string) => void } = {},
): Promise<{ sim: RunningEdoSimulator; usesSimulator: boolean; close(): Promise<void> }> {
  // The seeded UPDs/invoices are the real 5.03 seller title, written by the recognition API's writer.
  // With the official schema configured (EDO_SIMULATOR_UPD_XSD, else RECOGNITION_UPD_XSD), the simulator checks
  // posted UPD/invoice drafts against it as Diadoc checks a formalized document.
  const sim = await startEdoSimulator({ port: opts.port ?? 0, writeFormalized: simulatorUpdWriter, updXsd: updXsdFromEnv() });
  const current = await admin.show().catch(() => null);
  const usesSimulator = !current || isLocal(current.apiBaseUrl);
  if (usesSimulator) {
    await admin.set({
      clientId: sim.clientId,
      clientSecret: sim.clientSecret,
      refreshToken: sim.refreshToken,
      boxId: sim.boxId,
      issuerUrl: sim.issuerUrl,
      apiBaseUrl: sim.apiUrl,
    });
  } else {
    opts.log?.(`keeping the stored e-document connection to ${current!.apiBaseUrl} (the simulator runs unused)`);
  }
  return { sim, usesSimulator, close: () => sim.close() };
}
