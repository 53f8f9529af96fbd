/** What a build reports while it runs (a terminal shows it as one live line: `cli/progress-line.ts`). */

/** The stages a reader can tell apart, in order. */
export type ProgressStage = 'config' | 'content' | 'pages' | 'links' | 'write' | 'search' | 'archive';

/** One report: the stage, and for pages how many of how many are done. */
export interface ProgressEvent {
  stage: ProgressStage;
  /** Pages done (rendered or reused) in the `pages` stage; page files read in the `content` stage; files and folders written into `--archive`. */
  done?: number;
  total?: number;
}

/** Receives the build's progress; called often, so it must be cheap. */
export type OnProgress = (event: ProgressEvent) => void;
