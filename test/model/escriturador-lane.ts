import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createLogger } from '../../platform/logger';
import type { EscrituradorEvent } from '../../domain/escriturador/port';
import { HttpEscriturador, type EscrituradorSettings } from '../../providers/escriturador/client';
import { EscrituradorSandboxControls } from '../../providers/escriturador/sandbox-controls';
import { EscrituradorBook } from '../../sandbox/escriturador/book';
import { escrituradorRoutes } from '../../sandbox/escriturador/routes';
import { sandboxErrors } from '../../sandbox/http';

const API_KEY = 'model-escriturador-key';

/**
 * The sandbox escriturador of one lane (its routes and books, sandbox/escriturador/), on an
 * ephemeral port, reached through the production adapter over HTTP as the worker reaches it. Its
 * outage is one for the whole server, so each lane has its own: the lane's runs go one at a time.
 */
export class EscrituradorLane {
  private constructor(
    private readonly server: Server,
    /** Its state, read by the invariants as the sandbox keeps it. */
    readonly book: EscrituradorBook,
    readonly client: HttpEscriturador,
    readonly controls: EscrituradorSandboxControls,
    /** Every event its book published, oldest first: none is sent, each reaches us when a model command delivers it. */
    readonly published: readonly EscrituradorEvent[],
  ) {}

  static async start(): Promise<EscrituradorLane> {
    const published: EscrituradorEvent[] = [];
    const book = new EscrituradorBook(() => new Date(), (event) => published.push(event));
    const app = express();
    app.use(express.json());
    app.use(escrituradorRoutes(book, { apiKey: API_KEY, now: () => new Date() }));
    app.use(sandboxErrors(createLogger('error', 'model-escriturador')));
    const server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const settings: EscrituradorSettings = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: API_KEY, timeoutMs: 5_000 };
    return new EscrituradorLane(server, book, new HttpEscriturador(settings), new EscrituradorSandboxControls(settings), published);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
  }
}
