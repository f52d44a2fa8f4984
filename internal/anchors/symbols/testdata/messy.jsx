import React from 'react'
export function List({items, onPick}) {
  const sorted = items.slice().sort((a,b) => a.rank - b.rank)
  return <ul className='list'>
    {sorted.map(item => <li key={item.id} onClick={() => onPick(item)}>{item.label}   ({item.count})</li>)}
  </ul>
}
export const Empty = () => <p>nothing   here</p>
const styles = {'root': {margin: 0}, "item-x": {padding: 1.50}}
export default class Panel extends React.Component { state = {open: false}; toggle = () => this.setState({open: !this.state.open}); render() { return <div>{this.state.open ? 'open' : "closed"}</div> } }
