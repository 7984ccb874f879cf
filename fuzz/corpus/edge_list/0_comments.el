0# a graph
% another comment

0 1
  	1 2 
# inside
2 2
