/** Which way a JSON-RPC message went on an agent connection (captures, the store, the protocol log). */
export type Direction = 'client->agent' | 'agent->client';
