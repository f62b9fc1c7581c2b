import { z } from 'zod';
import { MAX_ROOMS, MIN_ROOMS } from './state';

/** SPEC point 9: 1 room (individual) to 30 (executive); enterprise is agreed with sales. */
const roomsField = z.number().int('incorrect_data').min(MIN_ROOMS, 'incorrect_data').max(MAX_ROOMS, 'incorrect_data');

export const roomsSchema = z.strictObject({ rooms: roomsField });

const paymentIntentField = z.string().regex(/^pi_[A-Za-z0-9_]{1,200}$/, 'incorrect_data');
const setupIntentField = z.string().regex(/^seti_[A-Za-z0-9_]{1,200}$/, 'incorrect_data');

export const finishSchema = z.strictObject({ paymentIntent: paymentIntentField });

/** POST /billing/payment: the intent the browser confirmed — a payment, or a saved card. */
export const paymentSchema = z.union([z.strictObject({ paymentIntent: paymentIntentField }), z.strictObject({ setupIntent: setupIntentField })]);
