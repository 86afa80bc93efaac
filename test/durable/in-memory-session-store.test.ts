import { InMemorySessionStore } from 'affordance/durable';
import { sessionStoreContract } from './session-store-contract.js';

sessionStoreContract('InMemorySessionStore', () =>
  Promise.resolve({ store: new InMemorySessionStore(), close: () => Promise.resolve() }),
);
