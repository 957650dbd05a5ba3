// Module resolve hook (registered by postgres.mjs only when needed): the platform's Postgres
// binaries package resolves to its copy in a folder the `postgres` user can reach.
let redirect;

export function initialize(data) {
  redirect = data;
}

export async function resolve(specifier, context, next) {
  if (specifier === redirect.specifier) return { url: redirect.url, format: 'module', shortCircuit: true };
  return next(specifier, context);
}
