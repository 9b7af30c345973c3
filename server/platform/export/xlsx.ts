import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type ExcelJS from 'exceljs';
import type { FileResult } from '../files.js';

export type CellValue = string | number | boolean | null;
export interface Column<Row> { header: string; width?: number; value: (row: Row) => CellValue }

/**
 * The next batch is fetched once no more than this much of the sheet waits to be zipped and read:
 * about a quarter of a 1000-row batch, so the bytes of one batch are on their way before the next
 * query runs (an embedded database's query holds the event loop until it answers).
 */
const MAX_PENDING_BYTES = 256 * 1024;

interface Buffered { _writableState?: { length?: number }; _readableState?: { length?: number } }
const buffered = (stream: Buffered | undefined) => (stream?._writableState?.length ?? 0) + (stream?._readableState?.length ?? 0);

/**
 * Bytes of the sheet written but not yet read by the client. exceljs's streaming writer hands each
 * committed row to its zip without waiting (the worksheet's `stream` writes into a buffer of the
 * zip's own, its `pipes`), so nothing slows the rows down when the reader is slow: the export waits
 * on this instead. Without those internals it still counts what waits in `body`.
 */
function pendingBytes(sheet: ExcelJS.Worksheet, body: PassThrough): number {
  const pipes = (sheet as unknown as { stream?: { pipes?: Buffered[] } }).stream?.pipes ?? [];
  return pipes.reduce((sum, pipe) => sum + buffered(pipe), 0) + body.writableLength + body.readableLength;
}

/**
 * Streams a one-sheet .xlsx: exceljs's streaming writer commits each row as it is added, and
 * `batches` yields rows a page at a time, fetched only once the reader has taken most of the last
 * ones, so memory stays flat however many rows there are and however slow the reader is. Between
 * batches the event loop gets a turn (an embedded database answers without one), so the bytes go
 * out as they are made and other requests are served. The answer starts as soon as the first bytes
 * exist; a failure mid-way, or the reader going away, aborts the download.
 */
export function streamWorkbook(sheetName: string, filename: string, columns: Pick<Column<never>, 'header' | 'width'>[],
  nextBatch: () => Promise<CellValue[][] | undefined>): FileResult {
  const body = new PassThrough();
  (async () => {
    // exceljs (some 30 MB) is loaded by the first export, not by every server.
    const { default: excel } = await import('exceljs');
    const workbook = new excel.stream.xlsx.WorkbookWriter({ stream: body, useStyles: false, useSharedStrings: false });
    const sheet = workbook.addWorksheet(sheetName);
    sheet.columns = columns.map((column) => ({ header: column.header, width: column.width ?? 18 }));
    for (let batch = await nextBatch(); batch; batch = await nextBatch()) {
      for (const cells of batch) sheet.addRow(cells).commit();
      batch = undefined;
      await nextTurn();
      while (pendingBytes(sheet, body) > MAX_PENDING_BYTES) {
        if (body.destroyed) return;
        await sleep(5);
      }
      if (body.destroyed) return;
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => body.destroy(error as Error));
  return {
    kind: 'file',
    body,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    filename,
  };
}
