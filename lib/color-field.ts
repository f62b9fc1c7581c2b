// The colour field of the room, contact and group forms (SPEC points 3 and 9): 1 to 20.
import { z } from 'zod';
import { COLORS } from './colors';

export const colorField = z.number({ error: 'incorrect_data' }).int('incorrect_data').min(1, 'incorrect_data').max(COLORS.length, 'incorrect_data');
