// Local recording (SPEC point 1): the call's videos drawn into one canvas, every voice mixed
// through Web Audio, and MediaRecorder writing WebM on this machine. Nothing is uploaded.

export interface RecordingSources {
  /** The tiles to draw, in grid order, with the name to caption them. */
  videos: () => { video: HTMLVideoElement | null; name: string }[];
  /** Every audio track to mix: ours and everyone else's. */
  audioTracks: () => MediaStreamTrack[];
}

const WIDTH = 1280;
const HEIGHT = 720;
const FPS = 25;

export function recordingSupported(): boolean {
  return typeof MediaRecorder !== 'undefined' && typeof HTMLCanvasElement.prototype.captureStream === 'function';
}

function pickMimeType(): string {
  const candidates = ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm'];
  return candidates.find((type) => MediaRecorder.isTypeSupported(type)) ?? '';
}

/** Tiles in a near-square grid, as the call screen shows them. */
export function gridCells(count: number, width = WIDTH, height = HEIGHT) {
  const columns = Math.max(1, Math.ceil(Math.sqrt(count)));
  const rows = Math.max(1, Math.ceil(count / columns));
  const cellWidth = width / columns;
  const cellHeight = height / rows;
  return Array.from({ length: count }, (_, index) => ({
    x: (index % columns) * cellWidth,
    y: Math.floor(index / columns) * cellHeight,
    width: cellWidth,
    height: cellHeight,
  }));
}

export class LocalRecorder {
  private readonly canvas = document.createElement('canvas');
  private readonly audio = new AudioContext();
  private readonly mix = this.audio.createMediaStreamDestination();
  private readonly mixed = new Map<string, MediaStreamAudioSourceNode>();
  private recorder: MediaRecorder | null = null;
  private chunks: Blob[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly sources: RecordingSources) {
    this.canvas.width = WIDTH;
    this.canvas.height = HEIGHT;
  }

  start() {
    const context = this.canvas.getContext('2d')!;
    // setInterval, not requestAnimationFrame: the recording goes on while the tab is hidden.
    this.timer = setInterval(() => {
      this.draw(context);
      this.syncAudio();
    }, 1000 / FPS);
    this.draw(context);
    this.syncAudio();
    const stream = new MediaStream([...this.canvas.captureStream(FPS).getVideoTracks(), ...this.mix.stream.getAudioTracks()]);
    const mimeType = pickMimeType();
    this.recorder = new MediaRecorder(stream, mimeType ? { mimeType, videoBitsPerSecond: 2_500_000 } : undefined);
    this.recorder.ondataavailable = (event) => {
      if (event.data.size) this.chunks.push(event.data);
    };
    this.recorder.start(1000);
  }

  /** Stops and resolves to the WebM file. */
  stop(): Promise<Blob> {
    clearInterval(this.timer);
    const recorder = this.recorder;
    return new Promise((resolve) => {
      const finish = () => {
        for (const node of this.mixed.values()) node.disconnect();
        void this.audio.close();
        resolve(new Blob(this.chunks, { type: 'video/webm' }));
      };
      if (!recorder || recorder.state === 'inactive') return finish();
      recorder.onstop = finish;
      recorder.stop();
    });
  }

  private draw(context: CanvasRenderingContext2D) {
    const tiles = this.sources.videos();
    context.fillStyle = '#0f172a';
    context.fillRect(0, 0, WIDTH, HEIGHT);
    gridCells(tiles.length).forEach((cell, index) => {
      const { video, name } = tiles[index]!;
      if (video && video.readyState >= 2 && video.videoWidth) {
        // Contain the frame in its cell, keeping its aspect ratio.
        const scale = Math.min(cell.width / video.videoWidth, cell.height / video.videoHeight);
        const w = video.videoWidth * scale;
        const h = video.videoHeight * scale;
        context.drawImage(video, cell.x + (cell.width - w) / 2, cell.y + (cell.height - h) / 2, w, h);
      }
      context.fillStyle = 'rgba(0,0,0,0.55)';
      context.fillRect(cell.x + 8, cell.y + cell.height - 34, Math.min(cell.width - 16, 12 + name.length * 9), 26);
      context.fillStyle = '#fff';
      context.font = '16px system-ui, sans-serif';
      context.fillText(name, cell.x + 14, cell.y + cell.height - 16, cell.width - 28);
    });
  }

  /** Voices come and go during a recording: mix in new tracks, drop ended ones. */
  private syncAudio() {
    const tracks = this.sources.audioTracks().filter((track) => track.readyState === 'live');
    const ids = new Set(tracks.map((track) => track.id));
    for (const [id, node] of this.mixed) {
      if (!ids.has(id)) {
        node.disconnect();
        this.mixed.delete(id);
      }
    }
    for (const track of tracks) {
      if (this.mixed.has(track.id)) continue;
      const node = this.audio.createMediaStreamSource(new MediaStream([track]));
      node.connect(this.mix);
      this.mixed.set(track.id, node);
    }
  }
}

/** Offers the file to the user as a download; the URL lives only in this tab. */
export function saveRecording(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
