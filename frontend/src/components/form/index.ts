/** The one form pattern: `useZodForm`, `<Form>`, and fields named by typed paths. */
export { Form, useZodForm } from './Form';
export { PasswordField, SubmitButton, TextField, type FieldProps } from './fields';
export { ROOT_SERVER_ERROR, routeServerErrors, toFieldPath } from './server-errors';
