import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FileResult } from '../files.js';

export interface Column<Row> { header: string; width?: number; value: (row: Row) => string | number | boolean | null }

/**
 * Streams a one-sheet .xlsx: exceljs's streaming writer commits each row as it is added, and
 * `batches` yields rows a page at a time, so memory stays flat however many rows there are.
 * The answer starts as soon as the first bytes exist; a failure mid-way aborts the download.
 */
export function streamWorkbook<Row>(sheetName: string, filename: string, columns: Column<Row>[], batches: AsyncIterable<Row[]>): FileResult {
  const body = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: body, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((column) => ({ header: column.header, width: column.width ?? 18 }));
  (async () => {
    for await (const batch of batches) {
      for (const row of batch) sheet.addRow(columns.map((column) => column.value(row))).commit();
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
