// The background choice applied to a camera track. Loaded when an effect is first on (a
// remembered one when a camera opens, or a choice in the picker); the pipeline (worker,
// WebAssembly, model) is imported only when an effect actually starts.
import { rememberedBackground, type BackgroundChoice } from './choice';
import { pipelineOf, registerPipeline } from './registry';

async function start(raw: MediaStreamTrack, choice: BackgroundChoice): Promise<MediaStreamTrack> {
  const { startPipeline } = await import('./pipeline');
  const pipeline = await startPipeline(raw, choice);
  registerPipeline(pipeline);
  return pipeline.track;
}

/**
 * A camera just opened, with the background chosen on this device. An effect that cannot start
 * here (an old browser, a picture no longer kept) leaves the camera plain rather than off.
 */
export async function withBackground(raw: MediaStreamTrack, choice: BackgroundChoice = rememberedBackground()): Promise<MediaStreamTrack> {
  if (choice.kind === 'off') return raw;
  try {
    return await start(raw, choice);
  } catch (error) {
    console.warn('background effect unavailable', error);
    return raw;
  }
}

/**
 * Another effect for the camera track now sent. Resolves with the track to send from now on and
 * `release`, to call once it is sent (the old effect's track stops then, not before: no black
 * frame). The camera itself never stops here. Rejects when the effect cannot run in this browser.
 */
export async function changeBackground(current: MediaStreamTrack, choice: BackgroundChoice): Promise<{ track: MediaStreamTrack; release: () => void }> {
  const pipeline = pipelineOf(current);
  const nothing = () => undefined;
  if (choice.kind === 'off') return pipeline ? { track: pipeline.raw, release: () => pipeline.close() } : { track: current, release: nothing };
  if (pipeline) {
    await pipeline.setEffect(choice);
    return { track: current, release: nothing };
  }
  return { track: await start(current, choice), release: nothing };
}
