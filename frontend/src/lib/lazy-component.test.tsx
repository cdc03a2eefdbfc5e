import React from 'react';
import { act, render, screen } from '@testing-library/react';

import { lazyComponent } from './lazy-component';

function Hello({ who }: { who: string }) {
  return <p>Hello {who}</p>;
}

function renderIn(element: React.ReactNode) {
  return render(<React.Suspense fallback={<p>Waiting</p>}>{element}</React.Suspense>);
}

describe('lazyComponent', () => {
  it('suspends until its chunk arrives when it was not preloaded', async () => {
    const Lazy = lazyComponent(() => Promise.resolve(Hello));
    renderIn(<Lazy who="Ann" />);
    expect(screen.getByText('Waiting')).toBeInTheDocument();
    expect(await screen.findByText('Hello Ann')).toBeInTheDocument();
  });

  it('renders at once, without its fallback, once a preload has brought the chunk (issue 42 item 19: a fallback holds back every reveal for 300 ms)', async () => {
    const load = jest.fn(() => Promise.resolve(Hello));
    const Lazy = lazyComponent(load);
    await act(() => Lazy.preload());
    renderIn(<Lazy who="Bo" />);
    expect(screen.getByText('Hello Bo')).toBeInTheDocument();
    expect(screen.queryByText('Waiting')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks for its chunk once, preloaded and rendered', async () => {
    const load = jest.fn(() => Promise.resolve(Hello));
    const Lazy = lazyComponent(load);
    void Lazy.preload();
    renderIn(<Lazy who="Cy" />);
    expect(await screen.findByText('Hello Cy')).toBeInTheDocument();
    await Lazy.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("passes a chunk's failure to the error boundary", async () => {
    const Lazy = lazyComponent<{ who: string }>(() => Promise.reject(new Error('Failed to fetch')));
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    class Boundary extends React.Component<{ children: React.ReactNode }, { error: Error | null }> {
      state = { error: null as Error | null };
      static getDerivedStateFromError(error: Error) {
        return { error };
      }
      render() {
        return this.state.error ? <p role="alert">{this.state.error.message}</p> : this.props.children;
      }
    }
    render(
      <Boundary>
        <React.Suspense fallback={<p>Waiting</p>}>
          <Lazy who="Di" />
        </React.Suspense>
      </Boundary>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch');
    logged.mockRestore();
  });
});
