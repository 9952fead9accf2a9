/* crtplot interprets each input byte as a plotter command; the command
   'f' (set font) dereferences a font table that was never loaded, so any
   input containing an 'f' makes it die of SIGSEGV, as the UNIX crtplot did
   on fuzz input (TSE 2002 §4.3). It reads the file named by its argument,
   or standard input. */
#include <stdio.h>
#include <stdlib.h>

struct font { int height; };
static struct font *fonts[16];
static int x, y;

static void plot(int c) {
	switch (c) {
	case 'm': x++; break;
	case 'n': y++; break;
	case 'e': x = y = 0; break;
	case 'f': x += fonts[c & 15]->height; break; /* fonts never loaded */
	default: break;
	}
}

int main(int argc, char **argv) {
	FILE *in = argc > 1 ? fopen(argv[1], "rb") : stdin;
	int c;
	if (!in) { perror(argv[1]); return 1; }
	while ((c = getc(in)) != EOF)
		plot(c);
	printf("%d %d\n", x, y);
	return 0;
}
