/** Unit and component tests: Jest + Testing Library in jsdom, TypeScript through SWC. */
export default {
  testEnvironment: '<rootDir>/jest.environment.cjs',
  roots: ['<rootDir>/src'],
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
  // Above the 10 s of findBy/waitFor (src/test/setup.ts), so a slow wait fails as itself.
  testTimeout: 30_000,
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/src/$1',
    '\\.css$': 'identity-obj-proxy',
  },
  testEnvironmentOptions: { customExportConditions: [''] },
};
