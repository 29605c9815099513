import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  createAuthenticatingFetchWithRetry,
  type AuthenticationHandler,
  type Client,
} from '@a2a-js/sdk/client';

/**
 * An A2A client that sends `Authorization: Bearer <token>` on every call, the way the SDK supports it: an
 * authentication handler wrapped around fetch, given to each transport (the card itself is fetched without it).
 */
export function a2aClient(baseUrl: string, token: string): Promise<Client> {
  const bearer: AuthenticationHandler = {
    headers: async () => ({ Authorization: `Bearer ${token}` }),
    shouldRetryWithHeaders: async () => undefined,
  };
  const fetchImpl = createAuthenticatingFetchWithRetry(fetch, bearer);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    }),
  );
  return factory.createFromUrl(baseUrl);
}
