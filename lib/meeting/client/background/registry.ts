// The camera tracks that carry a background effect, and their pipelines. Tiny and loaded with
// the meeting page (the test probe and the device dialog ask it); apply.ts fills it, on first use.
import type { BackgroundPipeline } from './pipeline';
import type { BackgroundStats } from './protocol';

const pipelines = new WeakMap<MediaStreamTrack, BackgroundPipeline>();

export function registerPipeline(pipeline: BackgroundPipeline) {
  pipelines.set(pipeline.track, pipeline);
}

export function pipelineOf(track: MediaStreamTrack): BackgroundPipeline | undefined {
  return pipelines.get(track);
}

/** The camera behind a track that may carry an effect (its device id, its label). */
export function rawCamera(track: MediaStreamTrack): MediaStreamTrack {
  return pipelines.get(track)?.raw ?? track;
}

/** What the effect on this track costs, or null without one (the test probe and the benchmark read it). */
export function backgroundStats(track: MediaStreamTrack | null): BackgroundStats | null {
  return (track && pipelines.get(track)?.stats()) ?? null;
}
