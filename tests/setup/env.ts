import 'reflect-metadata';

// Tests log nothing unless asked to, in JSON lines even under a terminal; images get a fixed
// base so URLs can be asserted.
process.env.LOG_LEVEL ??= 'silent';
process.env.LOG_FORMAT ??= 'json';
process.env.IMAGE_BASE_URL ??= 'https://cdn.test';
process.env.RATE_LIMIT ??= 'off';
