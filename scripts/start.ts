/**
 * `npm start`: the Delivery Partner API with the demo chain (POS simulator, loyalty simulator, a local webhook
 * receiver) and the Document Recognition API, on the embedded defaults (PGlite and files in ./data).
 * Environment: PORT (3000), RECOGNITION_PORT (3100), DATA_DIR (./data), DATABASE_URL, DEMO_API_KEY/DEMO_API_SECRET,
 * DEMO_RECOGNITION_API_KEY, DEMO_WEBHOOKS=0 to run without the demo receiver, EDO_SIMULATOR_PORT (random),
 * DEMO_CONSOLE_PASSWORD (the support console at /console of the delivery port), DEMO_ADMIN_PASSWORD / ADMIN_* (the admin panel at /admin of the recognition port), EDO_MASTER_KEY and DIADOC_* (a real Diadoc connection instead of the simulator: docs/edo-gateway.md).
 */
import { randomBytes } from 'node:crypto';
import pretty from 'pino-pretty';
import { join } from 'node:path';
import {
  CONSOLE_PREFIX,
  ensureConsoleDemoAccount,
  HttpLoyalty,
  loadConfig,
  seedDemoChain,
  setWebhookConfig,
  startDeliveryServer,
  type DemoCredentials,
} from '@app/delivery-api';
import { DEMO_LOYALTY_CONFIG_PATH, startLoyaltySimulator } from '@app/loyalty-simulator';
import { startDemoReceiver } from '@app/partner-sdk';
import { DEMO_CHAIN_PATH, DEMO_ZONES_PATH, loadChain, loadZones, startPosSimulator } from '@app/pos-simulator';
import { createServiceLogger, loadRecognitionConfig, serviceOptionsFromConfig, startRecognitionService } from '@app/recognition-api';
import { readJson, writeJson, type DemoCredentialsFile } from './demo/credentials-file.js';
import { startEdoDemo } from './demo/edo-demo.js';

const log = (msg: string) => process.stdout.write(`[demo] ${msg}\n`);

/**
 * The demo terminal reads log lines, so they are pretty-printed (time, level, message, then fields) and tagged
 * with the service; the production entries keep JSON lines. Synchronous, so nothing is lost on Ctrl+C.
 */
const prettyLog = (service: string) =>
  pretty({
    colorize: process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,service',
    messageFormat: `[${service}] {msg}`,
    sync: true,
  });

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, WEBHOOKS_ALLOW_INSECURE_LOOPBACK: process.env.WEBHOOKS_ALLOW_INSECURE_LOOPBACK ?? '1' });
  const chain = await loadChain(DEMO_CHAIN_PATH);
  const zones = await loadZones(DEMO_ZONES_PATH);

  log('starting the loyalty simulator (config packages/loyalty-simulator/config/demo.json)');
  const loyaltySim = await startLoyaltySimulator({ configPath: DEMO_LOYALTY_CONFIG_PATH, port: 0 });
  const loyalty = new HttpLoyalty({ baseUrl: loyaltySim.url, apiLogin: 'demo-loyalty-login', timeoutMs: config.loyaltyTimeoutMs });

  const delivery = await startDeliveryServer({ config, loyalty, logger: { level: config.logLevel }, logDestination: prettyLog('delivery') });
  const posFile = join(config.dataDir, 'demo-pos-credentials.json');
  const known = readJson<DemoCredentials>(posFile) ?? {};
  const creds = await seedDemoChain(delivery.db, delivery.box, chain, zones, known, {
    apiKey: process.env.DEMO_API_KEY,
    apiSecret: process.env.DEMO_API_SECRET,
  });
  writeJson(posFile, creds);
  const credsFile = join(config.dataDir, 'demo-credentials.json');
  const consoleAccount = await ensureConsoleDemoAccount(delivery.services.consoleCore, {
    demoPassword: process.env.DEMO_CONSOLE_PASSWORD,
    knownPassword: readJson<DemoCredentialsFile>(credsFile)?.console?.password ?? undefined,
  });

  let receiver: { url: string; close(): Promise<void> } | undefined;
  if (process.env.DEMO_WEBHOOKS !== '0') {
    const secret = randomBytes(32).toString('base64url');
    receiver = await startDemoReceiver({ port: 0, secret, log: (line: string) => process.stdout.write(`[webhook] ${line}\n`) });
    await setWebhookConfig(
      delivery.db,
      delivery.box,
      { tenantId: chain.tenant.id, source: chain.source, url: receiver.url, secret },
      { allowInsecureLoopback: config.webhooksAllowInsecureLoopback },
    );
  }

  const pos = await startPosSimulator({
    baseUrl: delivery.url,
    chain,
    terminals: chain.points.map((p) => ({ pointId: p.pointId, ...creds.pos[p.pointId] })),
    log: delivery.app.log,
  }); // resolves after the first full sync of every terminal

  // Same configuration loader as production (AI_*, RECOGNITION_WORKERS, RECOGNITION_HOST, …); the demo adds its
  // key and allows callbacks to loopback for a receiver on this machine. Private, link-local and metadata
  // addresses stay refused.
  const recognitionConfig = loadRecognitionConfig(process.env);
  const recognition = await startRecognitionService({
    ...serviceOptionsFromConfig(recognitionConfig, createServiceLogger(recognitionConfig.logLevel, prettyLog('recognition'))),
    demoApiKey: process.env.DEMO_RECOGNITION_API_KEY || true,
    allowLoopbackCallbacks: true,
  });
  log('recognition callbacks may go to loopback addresses (demo only); private, link-local and metadata addresses are refused');
  log('starting the Diadoc simulator for the e-document gateway (packages/edo-simulator)');
  const edoDemo = await startEdoDemo(recognition.edo, { port: Number(process.env.EDO_SIMULATOR_PORT ?? 0), log });

  const orderPoint = chain.points.find((p) => p.collectsOrders) ?? chain.points[0];
  const file: DemoCredentialsFile = {
    baseUrl: delivery.url,
    apiKey: creds.partner.apiKey,
    apiSecret: creds.partner.apiSecret,
    source: chain.source,
    pointIds: chain.points.map((p) => p.pointId),
    orderPointId: orderPoint.pointId,
    recognition: { baseUrl: recognition.url, apiKey: recognition.apiKey ?? '' },
    admin: recognition.admin,
    edoSimulator: { apiUrl: edoDemo.sim.apiUrl, issuerUrl: edoDemo.sim.issuerUrl, boxId: edoDemo.sim.boxId, connected: edoDemo.usesSimulator },
    console: { url: `${delivery.url}${CONSOLE_PREFIX}`, ...consoleAccount },
    ...(receiver ? { webhookReceiver: { url: receiver.url } } : {}),
    ...(creds.planned ? { planned: creds.planned } : {}),
  };
  writeJson(credsFile, file);
  log(`Delivery Partner API   ${delivery.url}   (OpenAPI ${delivery.url}/openapi.json, reference ${delivery.url}/docs)`);
  log(`Recognition API        ${recognition.url}/api/v1   (X-API-Key: ${recognition.apiKey})`);
  log(
    `Support console        ${delivery.url}${CONSOLE_PREFIX}   (user ${consoleAccount.username}, password ${consoleAccount.password ?? '(changed since; set with delivery-operator console user passwd)'})`,
  );
  log(
    `Admin panel            ${recognition.admin.url}   (user ${recognition.admin.username}, password ${recognition.admin.password ?? '(set with ADMIN_PASSWORD_HASH or admin-cli; not shown)'})`,
  );
  log(
    `E-document gateway     ${recognition.url}/api/v1/edo   (same key; ${edoDemo.usesSimulator ? `Diadoc simulator ${edoDemo.sim.apiUrl}, box ${edoDemo.sim.boxId}` : 'stored operator connection'})`,
  );
  log(`demo partner key       ${creds.partner.apiKey}`);
  log(`demo partner secret    ${creds.partner.apiSecret}`);
  if (creds.planned)
    log(
      `planned-features key   ${creds.planned.apiKey} / ${creds.planned.apiSecret}   (source ${creds.planned.source}: guest API, /v1/status, catalog events, rate limits on)`,
    );
  log(`source ${chain.source}; points ${file.pointIds.join(', ')}; orders are collected at point ${orderPoint.pointId}`);
  log(`credentials written to ${join(config.dataDir, 'demo-credentials.json')}; webhooks of the demo source print below as [webhook]`);
  log('press Ctrl+C to stop');

  const stop = async () => {
    log('stopping');
    await pos.stop();
    await recognition.close();
    await edoDemo.close();
    await receiver?.close();
    await delivery.close();
    await loyaltySim.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  console.error(`[demo] failed to start: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
