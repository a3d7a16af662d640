/**
 * Process entry. graphql-js chooses between its development checks (slow, on every
 * request) and production mode once, when it is first loaded, from NODE_ENV: so the
 * service defaults to production before loading anything. `npm start` sets it too;
 * the tests run in jest's `test` mode and keep the checks.
 */
process.env.NODE_ENV ??= 'production';

void import('./server.js');
