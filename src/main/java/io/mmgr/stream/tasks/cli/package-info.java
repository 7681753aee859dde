/**
 * What a family's {@code mmgr eval} and {@code mmgr bench generate} commands share: reading records, JSONL
 * cases and artifacts, printing JSON lines, scoring a case as the stream would ({@link
 * io.mmgr.stream.tasks.cli.FamilySample}) and the input error the app prints without a stack trace. It sits
 * with the task SPI, so a family's commands live in its own folder and need nothing of the app.
 */
package io.mmgr.stream.tasks.cli;
