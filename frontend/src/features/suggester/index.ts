/**
 * The public face of the suggester feature. Its screen is in `screens.ts`, which only the
 * route table imports, lazily.
 */
export { STEP_COUNT } from './wizard';
