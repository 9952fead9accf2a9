module example.com/realbugs/ini-306

go 1.22

require gopkg.in/ini.v1 v1.66.1

require github.com/stretchr/testify v1.12.1 // indirect
