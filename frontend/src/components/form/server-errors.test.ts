import { act, renderHook } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { ApiError } from '@/lib/api-error';
import { isFormPath, ROOT_SERVER_ERROR, routeServerErrors, toFieldPath } from './server-errors';

interface RuleValues {
  name: string;
  conditions: { metric: string; value: string }[];
}

const defaults: RuleValues = {
  name: '',
  conditions: [
    { metric: 'spend', value: '' },
    { metric: 'taps', value: '' },
  ],
};

/** The form, subscribed to its errors (react-hook-form re-renders only for state that is read). */
function renderRuleForm() {
  return renderHook(() => {
    const form = useForm<RuleValues>({ defaultValues: defaults });
    void form.formState.errors;
    return form;
  });
}

function fail(...errors: { field: string; message: string }[]) {
  return new ApiError(400, 'The rule is invalid', errors);
}

describe('toFieldPath', () => {
  it.each([
    ['email', 'email'],
    ['conditions.0.value', 'conditions.0.value'],
    ['conditions[0].value', 'conditions.0.value'],
    ['groups[1].keywords[12].text', 'groups.1.keywords.12.text'],
    ['[2].name', '2.name'],
  ])('%s → %s', (field, path) => {
    expect(toFieldPath(field)).toBe(path);
  });
});

describe('isFormPath', () => {
  it('knows the paths of the values, nested ones included', () => {
    expect(isFormPath(defaults, 'name')).toBe(true);
    expect(isFormPath(defaults, 'conditions.1.value')).toBe(true);
    expect(isFormPath(defaults, 'conditions.0')).toBe(true);
    expect(isFormPath(defaults, 'conditions.2.value')).toBe(false);
    expect(isFormPath(defaults, 'email')).toBe(false);
    expect(isFormPath(defaults, '')).toBe(false);
  });
});

describe('routeServerErrors', () => {
  it('routes a nested field error to its field and leaves the root alone', () => {
    const { result } = renderRuleForm();
    act(() => routeServerErrors(fail({ field: 'conditions.1.value', message: 'Enter a number' }), result.current));
    expect(result.current.getFieldState('conditions.1.value').error).toMatchObject({ type: 'server', message: 'Enter a number' });
    expect(result.current.getFieldState('conditions.0.value').error).toBeUndefined();
    expect(result.current.formState.errors.root).toBeUndefined();
  });

  it('reads bracket paths the same way', () => {
    const { result } = renderRuleForm();
    act(() => routeServerErrors(fail({ field: 'conditions[0].value', message: 'Required' }), result.current));
    expect(result.current.getFieldState('conditions.0.value').error?.message).toBe('Required');
  });

  it("shows the server's message at the root when no field matches", () => {
    const { result } = renderRuleForm();
    act(() => routeServerErrors(fail({ field: 'conditions.5.value', message: 'No such condition' }), result.current));
    expect(result.current.formState.errors.root?.server?.message).toBe('The rule is invalid');
  });

  it('shows at the root what no field can show when others were routed', () => {
    const { result } = renderRuleForm();
    act(() =>
      routeServerErrors(
        fail({ field: 'name', message: 'Name taken' }, { field: 'schedule', message: 'Pick a schedule' }),
        result.current,
      ),
    );
    expect(result.current.getFieldState('name').error?.message).toBe('Name taken');
    expect(result.current.formState.errors.root?.server?.message).toBe('Pick a schedule');
  });

  it('shows any other failure at the root', () => {
    const { result } = renderRuleForm();
    act(() => routeServerErrors(new Error('network'), result.current));
    expect(result.current.formState.errors.root?.server?.message).toBe('Bad Gateway');
    expect(ROOT_SERVER_ERROR).toBe('root.server');
  });
});
