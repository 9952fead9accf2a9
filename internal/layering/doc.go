// Package layering holds the test that keeps wynot's packages in their
// layers, as doc/design.md draws them: the algorithms (dd) depend on
// nothing that touches the operating system; the domains (domain/...)
// cut circumstances into changes and never run, report or open a
// session; only the runner starts processes; the commands test
// candidates only through the session; report knows no domain; keep,
// which writes results and keeps the originals, knows only file trees; and
// cmd/wynot knows only the commands.
package layering
