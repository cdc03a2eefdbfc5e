import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { TextDecoder, TextEncoder } from 'node:util';
import { resetFetchMock, takeContractProblems } from './fetch-mock';

// The default 1 s of findBy/waitFor is too short on a busy two-core machine: `make test`
// compiles the Rust tests (niced) beside Jest, and a table's first render then takes several
// seconds. A test that waits for something that never comes still fails, only later.
configure({ asyncUtilTimeout: 10_000 });

Object.assign(globalThis, { TextEncoder, TextDecoder });

// jsdom lacks these browser APIs that Mantine and the router touch.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
window.scrollTo = () => {};
window.HTMLElement.prototype.scrollIntoView = () => {};
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
Object.assign(globalThis, { ResizeObserver: ResizeObserverStub });

afterEach(() => {
  const problems = takeContractProblems();
  resetFetchMock();
  window.localStorage.clear();
  window.sessionStorage.clear();
  // A mock answered what the server never sends (src/test/fetch-mock.ts): the test fails
  // here even when the screen swallowed the failed call.
  if (problems.length > 0) {
    throw new Error(`Mocked answers the OpenAPI document does not describe:\n${[...new Set(problems)].join('\n')}`);
  }
});
