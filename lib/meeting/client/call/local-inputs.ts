// This page's captures as the session sends them (issue 49 point 3): the raw camera and
// microphone stay here, a processor on a slot (media/track-processor.ts: noise suppression now)
// gives the track the senders and the recorder get, and the mute state acts on that track.
import { InputSlots, type InputSlot, type TrackProcessor } from '../media/track-processor';
import type { Slot } from '../links/slots';
import { pipelineOf } from '../background/registry';

export interface LocalInputsContext {
  /** Puts a track on every sender of the slot (the links, and the SFU's when there). */
  send(slot: Slot, track: MediaStreamTrack | null): Promise<void>;
  muted(): boolean;
  /** The call ended: nothing is sent any more, a processor taken off just stops. */
  ended(): boolean;
}

export class LocalInputs {
  private readonly slots: InputSlots;

  constructor(
    raw: Record<InputSlot, MediaStreamTrack | null>,
    private readonly ctx: LocalInputsContext,
  ) {
    this.slots = new InputSlots(raw);
  }

  /** The capture itself, before any processor (the device dialog's choice, captions later). */
  capture(slot: InputSlot) {
    return this.slots.capture(slot);
  }

  /**
   * A camera on or off (the toggle, another device, another effect): the senders carry it as it
   * is. A track with a background effect (background/pipeline.ts, made when the camera opened or
   * the effect changed) is that camera's processor: the capture behind it is what the session
   * holds. Who replaces a camera stops the old one (the toggle, useBackgroundChoice's release).
   */
  async setCamera(track: MediaStreamTrack | null) {
    const pipeline = track ? pipelineOf(track) : undefined;
    this.slots.setRaw('camera', pipeline?.raw ?? track);
    this.slots.setProcessor('camera', pipeline ? { raw: pipeline.raw, track: pipeline.track, stop: () => pipeline.close() } : null);
    await this.ctx.send('camera', track);
  }

  /** Another microphone mid-call: it keeps the mute state; the old capture stops, and a processor of it. */
  async switchMicrophone(track: MediaStreamTrack) {
    const { old, dropped } = this.slots.setRaw('audio', track);
    await this.sendMicrophone();
    this.slots.stop(dropped);
    if (old !== track) old?.stop();
  }

  /**
   * A processor on the microphone's capture, or none: the senders and the recorder carry its track
   * from now on; the one before stops once it is no longer sent. False when the capture changed
   * meanwhile (the processor is stopped then).
   */
  async setProcessor(slot: 'audio', processor: TrackProcessor | null): Promise<boolean> {
    const { accepted, previous } = this.slots.setProcessor(slot, processor);
    if (!accepted) {
      this.slots.stop(processor);
      return false;
    }
    await this.sendMicrophone();
    this.slots.stop(previous);
    return true;
  }

  /** Takes `processor` off the microphone if it is still there; stops it either way. */
  async removeProcessor(slot: 'audio', processor: TrackProcessor) {
    if (this.slots.processor(slot) === processor && !this.ctx.ended()) await this.setProcessor(slot, null);
    else this.slots.stop(processor);
  }

  /** The call's end: every processor, then every capture. */
  stopAll() {
    this.slots.stopAll();
  }

  /** The microphone's output with the mute state; a processed capture keeps sounding into its processor. */
  private async sendMicrophone() {
    const raw = this.slots.capture('audio');
    const track = this.slots.output('audio');
    if (track) track.enabled = !this.ctx.muted();
    if (raw && raw !== track) raw.enabled = true;
    await this.ctx.send('audio', track);
  }
}
