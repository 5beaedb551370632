import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.js';
import { DemoToolsEnvError } from './errors.js';

describe('loadEnv', () => {
  it('applies the documented defaults', () => {
    expect(loadEnv({ DATABASE_URL: 'postgres://u@h/db' })).toMatchObject({
      HTTP_PORT: 8090,
      HTTP_HOST: '0.0.0.0',
      DEMO_TOOLS_SCHEMA: 'demo_tools',
    });
  });

  it('names every bad variable and never echoes the connection string', () => {
    const attempt = () =>
      loadEnv({
        DATABASE_URL: 'mysql://user:secret@h/db',
        HTTP_PORT: 'eighty',
        DEMO_TOOLS_SCHEMA: 'Bad-Name',
      });
    expect(attempt).toThrow(DemoToolsEnvError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/DATABASE_URL/);
      expect(message).toMatch(/HTTP_PORT/);
      expect(message).toMatch(/DEMO_TOOLS_SCHEMA/);
      expect(message).not.toContain('secret');
    }
  });
});
