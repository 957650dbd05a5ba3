import { CLIENT_SCOPES } from '../../domain/principal';

export const SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';

/**
 * RFC 8414 authorization server metadata: what OAuth2 client libraries discover before asking for
 * a token. The issuer is the api's public address; only the client credentials grant exists, so
 * no response type does.
 */
export function authorizationServerMetadata(publicUrl: string) {
  return {
    issuer: publicUrl,
    token_endpoint: `${publicUrl}/v1/auth/token`,
    jwks_uri: `${publicUrl}/v1/.well-known/jwks.json`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [...CLIENT_SCOPES],
    response_types_supported: [] as string[],
    service_documentation: `${publicUrl}/docs/`,
  };
}
