import type { ErrorRequestHandler } from 'express';
import { Refusal } from '../http';

export interface Violacao {
  razao: string;
  propriedade: string;
  valor?: string;
}

/**
 * An API Pix refusal, rendered as the specification's `application/problem+json`: `type` is one of
 * the Central Bank's error URIs (`https://pix.bcb.gov.br/api/v2/error/<Name>`).
 */
export class PixProblem extends Error {
  constructor(readonly problem: string, readonly status: number, readonly title: string, readonly detail: string, readonly violacoes: Violacao[] = []) {
    super(detail);
  }

  body() {
    return {
      type: `https://pix.bcb.gov.br/api/v2/error/${this.problem}`, title: this.title, status: this.status, detail: this.detail,
      ...(this.violacoes.length > 0 ? { violacoes: this.violacoes } : {}),
    };
  }
}

/** A request the schema refuses: `violacoes` names the property. */
export function invalidRequest(name: string, propriedade: string, razao: string): PixProblem {
  return new PixProblem(name, 400, 'Requisição inválida', 'A requisição não respeita o schema.', [{ razao, propriedade }]);
}

/** Every refusal under the API Pix mount answers problem+json, whoever raised it. */
export const problemErrors: ErrorRequestHandler = (err, _req, res, next) => {
  let problem: PixProblem | null = null;
  if (err instanceof PixProblem) problem = err;
  else if (err instanceof Refusal) problem = new PixProblem('RequisicaoInvalida', err.status, 'Requisição inválida', err.message);
  else if ((err as { type?: string }).type === 'entity.parse.failed') problem = invalidRequest('RequisicaoInvalida', 'body', 'o corpo não é JSON válido');
  if (!problem) return next(err);
  res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem.body()));
};
