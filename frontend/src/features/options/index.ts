/** The public face of the options feature (saved per-user front-end options). */
export type { FrontOptions } from './api/front-options';
export { frontOptionsQuery, useFrontOptions } from './api/get-front-options';
export { useSaveFrontOptions, useUpdateFrontOption } from './api/put-front-options';
