import { request } from 'undici';
import type { AiConfig } from '../../config.js';
import { RecognitionFailedError, type EngineHealth, type RecognitionEngine, type RecognitionInput, type RecognitionOutput } from '../engine.port.js';
import { expandPdfImages } from '../pdf/pdf-pages.js';
import { estimateImageTokens, shrinkForAi, type AiImage } from './ai-images.js';
import { parseRetryAfter, realSleep, retryDelay, type Sleep } from './ai-retry.js';
import { AI_PROMPT, AiAnswer, type AiAnswerT, isAiAnswer } from './ai-schema.js';

/** The request body of `POST {baseUrl}/chat/completions` for one document (pages already shrunk). */
export function buildChatRequest(model: string, input: Omit<RecognitionInput, 'images'>, images: AiImage[]): Record<string, unknown> {
  const hint = input.documentType === 'auto' ? 'Detect the document type.' : `The document type is ${input.documentType}.`;
  return {
    model,
    temperature: 0,
    messages: [
      { role: 'system', content: AI_PROMPT },
      {
        role: 'user',
        content: [
          { type: 'text', text: `${hint} Image quality: ${input.imageQuality}. Pages: ${images.length}.` },
          ...images.map((img) => ({ type: 'image_url', image_url: { url: img.dataUrl } })),
        ],
      },
    ],
    response_format: { type: 'json_schema', json_schema: { name: 'recognized_document', strict: true, schema: AiAnswer } },
  };
}

/** Ports of the adapter: where pages are shrunk (the worker pool in the service), waits, logs. */
export interface AiEngineDeps {
  shrink?: (images: Buffer[], signal?: AbortSignal) => Promise<AiImage[]>;
  sleep?: Sleep;
  log?: (msg: string, extra: object) => void;
}

/**
 * RecognitionEngine over an OpenAI-compatible chat completions API (AI_BASE_URL, AI_API_KEY, AI_MODEL). Pages are
 * downscaled to 2000 px and re-encoded as grayscale JPEG first (in the worker pool), sent as data URLs, the
 * answer constrained by a JSON schema and checked again with TypeBox. 429/5xx/network errors are retried by
 * {@link retryDelay} (Retry-After honoured). Each document logs `ai usage` with the image-token estimate and the
 * usage the API reports, plus a cost estimate when AI_COST_* prices are configured. Failures: connection errors
 * → `engine_unavailable`, abort/timeout → `timeout`, non-2xx or an answer outside the schema → `engine_error`.
 */
export class AiEngine implements RecognitionEngine {
  readonly name: string;
  constructor(
    private readonly config: AiConfig,
    private readonly deps: AiEngineDeps = {},
  ) {
    this.name = `ai:${config.model}`;
  }

  private headers(): Record<string, string> {
    return { 'content-type': 'application/json', ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}) };
  }

  async recognize(input: RecognitionInput): Promise<RecognitionOutput> {
    const signal = input.signal
      ? AbortSignal.any([input.signal, AbortSignal.timeout(this.config.timeoutMs)])
      : AbortSignal.timeout(this.config.timeoutMs);
    const images = this.deps.shrink
      ? await this.deps.shrink(input.images, signal)
      : await expandPdfImages(input.images, { signal })
          .then((pages) => Promise.all(pages.map(shrinkForAi)))
          .catch((err: Error) => {
            throw err instanceof RecognitionFailedError ? err : new RecognitionFailedError('undecodable_image', err.message);
          });
    const body = JSON.stringify(buildChatRequest(this.config.model, input, images));
    const text = await this.post(body, signal);
    const { answer, usage } = parseAnswer(text);
    this.logUsage(images, usage);
    const { document_type, ...data } = answer;
    return { documentType: input.documentType === 'auto' ? document_type : input.documentType, data, warnings: [], pages: images.length };
  }

  /** POSTs with the retry rule; resolves the 2xx body text. */
  private async post(body: string, signal: AbortSignal): Promise<string> {
    const sleep = this.deps.sleep ?? realSleep;
    for (let attempt = 1; ; attempt++) {
      let status: number | null = null;
      let retryAfter: number | null = null;
      let failure: RecognitionFailedError;
      try {
        const res = await request(`${this.config.baseUrl}/chat/completions`, { method: 'POST', headers: this.headers(), body, signal });
        status = res.statusCode;
        const text = await res.body.text();
        if (status >= 200 && status < 300) return text;
        retryAfter = parseRetryAfter(res.headers['retry-after'], Date.now());
        failure = new RecognitionFailedError('engine_error', `AI API answered HTTP ${status}`);
      } catch (err) {
        if (signal.aborted) throw new RecognitionFailedError('timeout', 'AI model did not answer in time');
        failure = new RecognitionFailedError('engine_unavailable', `AI API unreachable: ${(err as Error).message}`);
      }
      const delay = retryDelay(attempt, status, retryAfter);
      if (delay === null) throw failure;
      this.deps.log?.('ai request retried', { attempt, status, delayMs: delay });
      await sleep(delay, signal).catch(() => {
        throw new RecognitionFailedError('timeout', 'AI model did not answer in time');
      });
    }
  }

  private logUsage(images: AiImage[], usage: { prompt_tokens?: number; completion_tokens?: number } | undefined): void {
    const imageTokens = images.reduce((n, i) => n + estimateImageTokens(i.width, i.height), 0);
    const input = usage?.prompt_tokens ?? imageTokens + 600; // ~600 tokens of prompt and schema
    const output = usage?.completion_tokens ?? 0;
    const { inputPerMTok, outputPerMTok } = this.config.cost ?? {};
    const cost = inputPerMTok || outputPerMTok ? Number(((input * (inputPerMTok ?? 0) + output * (outputPerMTok ?? 0)) / 1e6).toFixed(6)) : undefined;
    this.deps.log?.('ai usage', {
      model: this.config.model,
      pages: images.length,
      uploadBytes: images.reduce((n, i) => n + i.bytes, 0),
      estimatedImageTokens: imageTokens,
      inputTokens: input,
      outputTokens: output,
      reported: Boolean(usage),
      ...(cost !== undefined ? { estimatedCost: cost } : {}),
    });
  }

  async health(): Promise<EngineHealth> {
    try {
      const res = await request(`${this.config.baseUrl}/models`, { headers: this.headers(), signal: AbortSignal.timeout(5000) });
      await res.body.dump();
      return res.statusCode >= 200 && res.statusCode < 300 ? 'ok' : 'unavailable';
    } catch {
      return 'unavailable';
    }
  }
}

/** Extracts and checks the model's JSON answer (and the reported `usage`) from a chat completion response body. */
export function parseAnswer(responseText: string): { answer: AiAnswerT; usage?: { prompt_tokens?: number; completion_tokens?: number } } {
  let content: unknown;
  let usage: { prompt_tokens?: number; completion_tokens?: number } | undefined;
  try {
    const parsed = JSON.parse(responseText) as {
      choices?: { message?: { content?: string | null; refusal?: string | null } }[];
      usage?: typeof usage;
    };
    usage = parsed.usage;
    const msg = parsed.choices?.[0]?.message;
    if (msg?.refusal) throw new RecognitionFailedError('no_document', 'AI model refused to read the images');
    content = JSON.parse(msg?.content ?? '');
  } catch (err) {
    if (err instanceof RecognitionFailedError) throw err;
    throw new RecognitionFailedError('engine_error', 'AI answer is not JSON');
  }
  if (!isAiAnswer(content)) throw new RecognitionFailedError('engine_error', 'AI answer does not match the document schema');
  return { answer: content, usage };
}
