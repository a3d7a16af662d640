import { ClientSecretBox } from '../../src/clients/client-secret-box';
import { loadConfig } from '../../src/config';

/**
 * The key client secrets are sealed under in the tests: global-setup sets
 * CLIENT_SECRET_KEY to it (unless it is set), so that no test run writes a key file.
 */
export const TEST_CLIENT_SECRET_KEY = 'Owq1I5T39IK/BE1igqPGaZxJz8iqHg3XO+69QxsBw+U=';

/** The box the test apps build from the configuration; factories seal with it. */
export function testClientSecrets(): ClientSecretBox {
  return new ClientSecretBox(loadConfig().clientSecretKeys);
}
