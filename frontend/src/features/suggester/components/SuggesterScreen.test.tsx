/**
 * The keyword suggester's step 1 (docs/product.md#2-keyword-suggester,
 * docs/product.md#5-suggester-steps): the search form, its hint and time, the competitors, and who
 * may open it.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeUser } from '@/test/fixtures';
import { callsTo, mockApi, ok } from '@/test/fetch-mock';
import { renderApp } from '@/test/render';
import { action, COLLECT, mockCollect, mockStep1, PATH, pickAppAndCountry, resetSaved, running, shortenWaits } from '@/test/suggester-screen';

// The first render compiles the app; the machine may be busy.
jest.setTimeout(40_000);

beforeAll(shortenWaits);

beforeEach(resetSaved);

describe('keyword suggester, step 1', () => {
  it('shows the five steps and disables the action until the form is valid (spec §5)', async () => {
    mockStep1();
    renderApp(PATH, makeUser());
    expect(await screen.findByText('Search parameters')).toBeInTheDocument();
    for (const name of ['Keyword selection', 'Keyword segmentation', 'Campaign naming', 'Campaign settings']) expect(screen.getByText(name)).toBeInTheDocument();
    expect(await action('Start collecting keywords')).toBeDisabled();
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('Select app and country');
    expect(screen.queryByRole('button', { name: 'Back' })).not.toBeInTheDocument();
    // The user's defaults fill the negative keywords.
    expect(screen.getByTestId('negative-keywords')).toHaveValue('free');

    await pickAppAndCountry();
    expect(await action('Start collecting keywords')).toBeEnabled();
    // Nothing measured yet: the server's first estimate, said to be one.
    expect(await screen.findByText('Estimated time: about 1 min (estimated from 43 planned calls)')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Keywords' }));
    expect(await action('Start collecting keywords')).toBeDisabled();
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('Add required keywords');
    await userEvent.type(screen.getByTestId('required-keywords'), 'Photo Editor!{enter}photo editor{enter}{enter}Collage');
    expect(screen.getByTestId('required-keywords-count')).toHaveTextContent('2 keywords');
    expect(await action('Start collecting keywords')).toBeEnabled();

    await userEvent.click(screen.getByRole('radio', { name: 'Competitors' }));
    expect(screen.getByTestId('wizard-hint')).toHaveTextContent('Add at least one competitor to continue');
    expect(await action('Start collecting keywords')).toBeDisabled();
  });

  it('rounds the duration of past runs up to minutes', async () => {
    mockStep1({ duration: 412_000 });
    renderApp(PATH, makeUser());
    await pickAppAndCountry();
    expect(await screen.findByText('Estimated time: 7 min')).toBeInTheDocument();
  });

  it('searches competitors, saves the one added and selects it', async () => {
    mockStep1();
    mockApi('GET /api/competitors/get/100', ok({ items: [] }));
    mockApi('POST /api/competitors/find', ok({ items: [{ adamId: '300', name: 'VSCO', developer: 'Visual Supply' }] }));
    mockApi('POST /api/suggester/competitors/findApp', ok({ items: [{ adamId: '200', name: 'Snapseed', developer: 'Google' }] }));
    mockApi('POST /api/suggester/competitors', ok({ item: { adamId: '200', name: 'Snapseed', developer: 'Google' } }));
    renderApp(PATH, makeUser());
    await pickAppAndCountry();
    await userEvent.click(screen.getByRole('radio', { name: 'Competitors' }));
    expect(await screen.findByText('No competitors saved for this app yet')).toBeInTheDocument();
    // The App Store's suggestions show before any search.
    expect(await screen.findByRole('button', { name: 'Add VSCO' })).toBeEnabled();
    expect(callsTo('POST /api/competitors/find')[0]?.body).toEqual({ adamId: '100', country: 'US' });
    await userEvent.type(screen.getByLabelText('Find a competitor in the App Store'), 'snap');
    await userEvent.click(await screen.findByRole('button', { name: 'Add Snapseed' }));
    expect(await screen.findByRole('checkbox', { name: 'Snapseed' })).toBeChecked();
    expect(callsTo('POST /api/suggester/competitors')[0]?.body).toEqual({ adamId: '100', competitorId: '200', country: 'US' });
    mockCollect(running(1, 'Looking for App Store suggestions'));
    await userEvent.click(await action('Start collecting keywords'));
    await waitFor(() => expect(callsTo(COLLECT)[0]?.body).toMatchObject({ suggestionType: 'competitors', competitors: ['200'] }));
  });

  it('sends readers to the restricted page', async () => {
    mockStep1();
    const { location } = renderApp(PATH, makeUser({ permission: 'reader' }));
    await waitFor(() => expect(location()).toBe('/restricted'));
  });
});
