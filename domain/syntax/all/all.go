// Package all loads every language of the table of package syntax: its
// only job is to import each language's package, whose init registers
// it (syntax.Register), as command/all lists the commands. Whoever
// reduces in the languages (command/reduce) imports this package, so a
// new language is one package under domain/syntax and one line here.
package all

import (
	_ "github.com/wynot/wynot/domain/syntax/golang"     // Go, through go/ast and go/types
	_ "github.com/wynot/wynot/domain/syntax/sql"        // SQL, a tree-sitter grammar with a check of the tables a script uses
	_ "github.com/wynot/wynot/domain/syntax/treesitter" // the built-in tree-sitter grammars
)
