import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { TextDecoder, TextEncoder } from 'node:util';
import { resetFetchMock } from './fetch-mock';

// The default 1 s of findBy/waitFor is too short on a busy two-core machine.
configure({ asyncUtilTimeout: 3000 });

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
  resetFetchMock();
  window.localStorage.clear();
});
