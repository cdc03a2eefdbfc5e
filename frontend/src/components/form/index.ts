export { Form, useZodForm } from './Form';
export { PasswordField, SubmitButton, TextField } from './fields';
