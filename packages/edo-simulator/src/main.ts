import { startEdoSimulator, updXsdFromEnv } from './index.js';

/** `npm start -w packages/edo-simulator`: runs the simulator alone and prints the connection values. */
const sim = await startEdoSimulator({ port: Number(process.env.EDO_SIMULATOR_PORT ?? 0), updXsd: updXsdFromEnv() });
console.log(
  JSON.stringify(
    {
      apiUrl: sim.apiUrl,
      issuerUrl: sim.issuerUrl,
      clientId: sim.clientId,
      clientSecret: sim.clientSecret,
      refreshToken: sim.refreshToken,
      boxId: sim.boxId,
    },
    null,
    2,
  ),
);
process.on('SIGINT', () => void sim.close().then(() => process.exit(0)));
