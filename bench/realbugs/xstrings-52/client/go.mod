module example.com/realbugs/xstrings-52

go 1.22

require github.com/huandu/xstrings v1.3.2
