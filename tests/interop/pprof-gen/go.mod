module profdata.example/pprofgen

go 1.19
