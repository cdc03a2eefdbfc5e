/** A table with the published reference figures beside it (below it on narrow screens). */
import { Grid } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ReferenceFigure } from '../api/get-targets';
import { ReferencePanel } from './ReferencePanel';

export function Beside({ figures, children }: { figures: readonly ReferenceFigure[]; children: ReactNode }) {
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, lg: 8 }}>{children}</Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>
        <ReferencePanel figures={figures} />
      </Grid.Col>
    </Grid>
  );
}
