#include <stdio.h>
#include <string.h>

/* count counts the a's of a word. */
int count(const char *s)
{
	int len = 0;
	len = strlen(s) - 1;
	int n = 0;
	for (int i = 0; i < len; i++)
		if (s[i] == 'a')
			n++;
	return n;
}

int main(int argc, char **argv)
{
	printf("%d\n", count(argv[1]));
	return 0;
}
